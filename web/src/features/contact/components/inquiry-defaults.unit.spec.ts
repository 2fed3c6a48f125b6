import type { User } from '@meshwork/contracts';
import { describe, expect, it } from 'vitest';
import { inquiryDefaults } from './inquiry-defaults';

const user: User = {
  id: 'u1',
  username: 'ada_l',
  email: 'ada@example.com',
  first_name: 'Ada',
  last_name: 'Lovelace',
  subscription_plan: 'free',
  max_clients: 2,
  allowed_models: [],
  created_at: '2026-01-01T00:00:00Z',
  is_staff: false,
  is_auditor: false,
};

describe('contact form defaults', () => {
  it('starts empty for a visitor', () => {
    expect(inquiryDefaults(null)).toEqual({ name: '', email: '', company: '', message: '' });
  });

  it('fills in a signed-in user’s first and last name and email', () => {
    expect(inquiryDefaults(user)).toEqual({ name: 'Ada Lovelace', email: 'ada@example.com', company: '', message: '' });
  });

  it('uses whichever name part is there, else the username', () => {
    expect(inquiryDefaults({ ...user, last_name: ' ' }).name).toBe('Ada');
    expect(inquiryDefaults({ ...user, first_name: '', last_name: 'Lovelace' }).name).toBe('Lovelace');
    expect(inquiryDefaults({ ...user, first_name: '', last_name: '' }).name).toBe('ada_l');
  });
});
