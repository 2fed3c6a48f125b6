import { JoinExchange, type JoinContext, newSessionId } from './join-pake';

const HOST = 'a'.repeat(64);
const MEMBER = 'b'.repeat(64);
const MIDDLE = 'c'.repeat(64);
const context = (hostCertificate = HOST, memberCertificate = MEMBER, sid = newSessionId()): JoinContext => ({
  sid,
  hostCertificate,
  memberCertificate,
});
const CLAIMS = ['network-id', 'Office', 'model'];

/** One run: whether each side's tag checks on the other side. */
function run(memberCode: string, hostCode: string, memberSees: JoinContext, hostSees: JoinContext) {
  const member = new JoinExchange('member', memberCode, memberSees);
  const host = new JoinExchange('host', hostCode, hostSees);
  const memberKey = member.key(host.share)!;
  const hostKey = host.key(member.share)!;
  return {
    hostProved: memberKey.matches('host', hostKey.tag('host', ...CLAIMS), ...CLAIMS),
    memberProved: hostKey.matches('member', memberKey.tag('member', 'device'), 'device'),
  };
}

describe('the join’s key exchange (CPace over ristretto255)', () => {
  it('proves the code both ways when both sides use it, however it was typed', () => {
    const shared = context();
    expect(run('bcdf-ghjk', 'BCDFGHJK', shared, shared)).toEqual({ hostProved: true, memberProved: true });
  });

  it('proves nothing with another code', () => {
    const shared = context();
    expect(run('BCDF-GHJK', 'BCDF-GHJL', shared, shared)).toEqual({ hostProved: false, memberProved: false });
  });

  it('fails through a machine in the middle, even one that relays every share unchanged', () => {
    // The member sees the middle's certificate as its host's; the host sees it as the member's.
    const sid = newSessionId();
    expect(run('BCDF-GHJK', 'BCDF-GHJK', context(MIDDLE, MEMBER, sid), context(HOST, MIDDLE, sid))).toEqual({
      hostProved: false,
      memberProved: false,
    });
  });

  it('gives a captured share nothing to test a guess against: every code yields a key, and shares differ each run', () => {
    const shared = context();
    const captured = new JoinExchange('member', 'BCDF-GHJK', shared).share;
    expect(new JoinExchange('member', 'BCDF-GHJK', shared).share).not.toBe(captured);
    // An attacker playing the host with the right code and with a wrong one: a key either way, so no signal without the member's live answer.
    for (const guess of ['BCDF-GHJK', 'BBBB-BBBB']) expect(new JoinExchange('host', guess, shared).key(captured)).not.toBeNull();
  });

  it('refuses a share that is not a point of the group, or is the identity', () => {
    const exchange = new JoinExchange('host', 'BCDF-GHJK', context());
    for (const share of ['00'.repeat(32), 'ff'.repeat(32), 'zz', '']) expect(exchange.key(share)).toBeNull();
  });
});
