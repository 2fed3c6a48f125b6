import type { SalesInquiry, User } from '@meshwork/contracts';

type InquiryFields = Required<SalesInquiry>;

/** What the form starts with: a signed-in user's name and email, so they only write the message. */
export function inquiryDefaults(user: User | null): InquiryFields {
  const fullName = [user?.first_name, user?.last_name]
    .map((part) => part?.trim())
    .filter(Boolean)
    .join(' ');
  return { name: fullName || (user?.username ?? ''), email: user?.email ?? '', company: '', message: '' };
}
