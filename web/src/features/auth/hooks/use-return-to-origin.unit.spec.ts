import { describe, expect, it } from 'vitest';
import { originFromNext, originFromState } from './use-return-to-origin';

describe('originFromState', () => {
  it('returns the remembered page with its query and hash', () => {
    expect(originFromState({ from: { pathname: '/profile', search: '?tab=password', hash: '#security' } })).toBe(
      '/profile?tab=password#security',
    );
  });

  it('has no origin when none was remembered, so login goes to the dashboard', () => {
    expect(originFromState(null)).toBeNull();
    expect(originFromState({})).toBeNull();
  });

  it('never sends the user back to a sign-in page or off the site', () => {
    expect(originFromState({ from: { pathname: '/login' } })).toBeNull();
    expect(originFromState({ from: { pathname: '//evil.example/' } })).toBeNull();
    expect(originFromState({ from: { pathname: 'https://evil.example/' } })).toBeNull();
  });
});

describe('originFromNext', () => {
  it('takes a path on this origin, such as the console page that sent the visitor', () => {
    expect(originFromNext('?next=%2Fadmin%2Fusers')).toBe('/admin/users');
    expect(originFromNext('?next=/profile?tab=security')).toBe('/profile?tab=security');
  });

  it('ignores other sites, protocol-relative and backslash tricks, and sign-in pages', () => {
    for (const search of ['?next=https://evil.example', '?next=//evil.example', '?next=/\\evil.example', '?next=/login', '', '?next=']) {
      expect(originFromNext(search)).toBeNull();
    }
  });
});
