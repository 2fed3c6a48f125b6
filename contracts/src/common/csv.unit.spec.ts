import { csvField, csvRows } from './csv';

describe('csvField', () => {
  it('quotes a field holding either separator, so `x;=1+1;x` stays one cell wherever it is opened', () => {
    expect(csvField('x;=1+1;x')).toBe('"x;=1+1;x"');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('tab\there')).toBe('"tab\there"');
  });

  it('doubles quotes and quotes line breaks', () => {
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('two\r\nlines')).toBe('"two\r\nlines"');
  });

  it('neutralises text that starts like a formula: apostrophe first, then quoted', () => {
    for (const start of ['=', '+', '-', '@', '\t', '\r'])
      expect(csvField(`${start}HYPERLINK("http://evil")`)).toBe(`"'${start}HYPERLINK(""http://evil"")"`);
    expect(csvField('=1+1')).toBe(`"'=1+1"`);
  });

  it('leaves plain text, numbers and text that is just a number as they are', () => {
    expect(csvField('AuditTest/1.0')).toBe('AuditTest/1.0');
    expect(csvField('kim@example.com')).toBe('kim@example.com');
    expect(csvField('-12.50')).toBe('-12.50');
    expect(csvField(-3)).toBe('-3');
    expect(csvField(null)).toBe('');
  });

  it('writes rows ended by CRLF', () => {
    expect(
      csvRows([
        ['a', 1, null],
        ['=x', 'y;z', ''],
      ]),
    ).toBe(`a,1,\r\n"'=x","y;z",\r\n`);
  });
});
