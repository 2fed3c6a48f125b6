import { scriptRuns } from './invoice-fonts';

const shape = (line: string) => {
  const { runs, rtl } = scriptRuns(line);
  return { rtl, runs: runs.map((run) => [run.family, run.rtl ? 'rtl' : 'ltr', run.text]) };
};

describe('invoice fonts: runs by script', () => {
  it('sets Latin, Cyrillic and Greek in one face, left to right', () => {
    expect(shape('ул. Пушкина 10, Ελλάδα')).toEqual({ rtl: false, runs: [['noto', 'ltr', 'ул. Пушкина 10, Ελλάδα']] });
  });

  it('keeps a Persian phrase one right-to-left run, spaces and joiners included', () => {
    expect(shape('مریم احمدی')).toEqual({ rtl: true, runs: [['vazirmatn', 'rtl', 'مریم احمدی']] });
    expect(shape('می\u200cخواهم')).toEqual({ rtl: true, runs: [['vazirmatn', 'rtl', 'می\u200cخواهم']] });
  });

  it('takes digits out of right-to-left runs, so they still read left to right', () => {
    expect(shape('پلاک 12 تهران')).toEqual({
      rtl: true,
      runs: [
        ['vazirmatn', 'rtl', 'پلاک '],
        ['noto', 'ltr', '12 '],
        ['vazirmatn', 'rtl', 'تهران'],
      ],
    });
    // Arabic-Indic digits are reversed for fontkit, which lays Arabic-script runs out right to left.
    expect(shape('پلاک ۱۲۳ تهران').runs[1]).toEqual(['vazirmatn', 'ltr', '۳۲۱ ']);
  });

  it('starts a line in the direction of its first letter', () => {
    expect(shape('Tax id: مریم').rtl).toBe(false);
    expect(shape('12 مریم').rtl).toBe(true);
    expect(shape('').runs).toEqual([]);
  });
});
