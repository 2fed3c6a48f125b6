import { API_TOKEN_PATTERN } from '@meshwork/contracts';
import { narrowerScope } from '../domain/api-token.decider';
import { apiTokenHash, isWellFormedApiToken, newApiTokenSecret } from './api-token-secret';

describe('API token secrets', () => {
  it('are mw_live_ and 256 random bits in base62 with a CRC32 suffix that scanners can check', () => {
    const tokens = Array.from({ length: 50 }, newApiTokenSecret);
    for (const token of tokens) {
      expect(token).toMatch(API_TOKEN_PATTERN);
      expect(isWellFormedApiToken(token)).toBe(true);
    }
    expect(new Set(tokens).size).toBe(tokens.length);
  });

  it('refuse a changed character, a wrong length or a foreign prefix without a lookup', () => {
    const token = newApiTokenSecret();
    const flipped = token.slice(0, 20) + (token[20] === 'a' ? 'b' : 'a') + token.slice(21);
    expect(isWellFormedApiToken(flipped)).toBe(false);
    expect(isWellFormedApiToken(token.slice(0, -1))).toBe(false);
    expect(isWellFormedApiToken(`mw_test_${token.slice(8)}`)).toBe(false);
    expect(isWellFormedApiToken(`${token.slice(0, 30)}-${token.slice(31)}`)).toBe(false);
  });

  it('are stored as their SHA-256 in hex', () => {
    expect(apiTokenHash('mw_live_x')).toMatch(/^[0-9a-f]{64}$/);
    expect(apiTokenHash('mw_live_x')).not.toBe(apiTokenHash('mw_live_y'));
  });

  it("take the narrower of the token's scope and the plan's", () => {
    expect(narrowerScope('read_write', 'read')).toBe('read');
    expect(narrowerScope('read', 'read_write')).toBe('read');
    expect(narrowerScope('read_write', 'none')).toBe('none');
    expect(narrowerScope('read_write', 'read_write')).toBe('read_write');
  });
});
