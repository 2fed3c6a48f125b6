import { z } from 'zod';
import { text } from '../common/fields';
import { email } from '../identity/account.contract';

/**
 * POST /api/v1/contact/ (public): a visitor's message to sales, from the site's /contact
 * page (the pricing page's Contact Sales). The site's form and the api validate with this.
 */
export const contactMessages = {
  nameRequired: 'Name is required',
  messageRequired: 'Please tell us how we can help',
  sent: (address: string) => `Thank you! Our sales team will reply to ${address}.`,
  notSent: 'Your message could not be sent. Please try again shortly.',
} as const;

export const SalesInquiry = z.object({
  name: text('Name', { max: 200, requiredMessage: contactMessages.nameRequired }),
  email,
  company: text('Company', { max: 200, required: false }).default(''),
  message: text('Message', { max: 5000, multiline: true, requiredMessage: contactMessages.messageRequired }),
});
export type SalesInquiry = z.input<typeof SalesInquiry>;

/** 201: `message` says the inquiry was sent. 503 with contactMessages.notSent when mail is down. */
export const SalesInquiryAnswer = z.object({ message: z.string() }).meta({ id: 'SalesInquiryAnswer' });
export type SalesInquiryAnswer = z.output<typeof SalesInquiryAnswer>;
