import { auditDetails } from './audit-details';

describe('audit details', () => {
  it('leaves out credentials at any depth and keeps everything else', () => {
    expect(
      auditDetails({
        userId: 'u1',
        passwordHash: '$argon2id$...',
        tokenHash: 'abc',
        codeHash: 'def',
        nested: { clientSecret: 's', refreshToken: 't', planId: 'pro' },
        list: [{ signature: 'sig', sha256: 'f00d' }],
        isStaff: false,
      }),
    ).toEqual({ userId: 'u1', nested: { planId: 'pro' }, list: [{ sha256: 'f00d' }], isStaff: false });
  });

  it('leaves out encrypted personal fields, which only their owner’s key opens', () => {
    expect(auditDetails({ email: 'enc:v1:QUJD', username: 'enc:v1:REVG', isStaff: true, tags: ['enc:v1:eA==', 'kept'] })).toEqual({
      isStaff: true,
      tags: ['kept'],
    });
  });

  it('answers an object for data that is not one', () => {
    expect(auditDetails(null)).toEqual({});
    expect(auditDetails('text')).toEqual({});
  });
});
