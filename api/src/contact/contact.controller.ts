import { Body, Controller, Inject, Post } from '@nestjs/common';
import type { z } from 'zod';
import { contactMessages, SalesInquiry, SalesInquiryAnswer } from '@meshwork/contracts';
import { RateLimited } from '../identity';
import { APP_CONFIG, type AppConfig } from '../platform/config/config';
import { unavailable } from '../platform/domain/errors';
import { Route, Tag } from '../platform/http/openapi/route-contract';
import { ZodPipe } from '../platform/http/validation';
import { logger } from '../platform/logging/logger';
import { MAILER, type Mailer } from '../platform/mail/mailer';

/** Header text from what a visitor typed: one line, so nothing can add a header. */
const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();

/**
 * The site's Contact Sales form. The message is mailed to sales (SALES_EMAIL), with the
 * visitor as the reply-to. It is not stored: the event log keeps personal data only
 * encrypted under per-user keys (crypto-shredding), and a visitor has none. So the answer
 * waits for the mail server: 201 once it took the message, 503 when it did not (the page
 * keeps what was typed, so nothing is lost).
 */
@Tag('contact')
@Controller('contact')
export class ContactController {
  constructor(
    @Inject(MAILER) private readonly mailer: Mailer,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Post()
  @RateLimited('contact')
  @Route({ summary: 'Mails a visitor’s message to sales.', response: SalesInquiryAnswer, errors: [503] })
  async send(@Body(new ZodPipe(SalesInquiry)) inquiry: z.output<typeof SalesInquiry>): Promise<SalesInquiryAnswer> {
    const from = oneLine(inquiry.company ? `${inquiry.name}, ${inquiry.company}` : inquiry.name);
    try {
      await this.mailer.send({
        to: this.config.SALES_EMAIL,
        replyTo: inquiry.email,
        subject: `Sales inquiry from ${from}`,
        text: `Name: ${inquiry.name}\nEmail: ${inquiry.email}\nCompany: ${inquiry.company || '(not given)'}\n\n${inquiry.message}\n\nReply to this email to answer them.`,
      });
    } catch (error) {
      logger.error({ err: error }, 'could not mail a sales inquiry');
      throw unavailable(contactMessages.notSent);
    }
    return { message: contactMessages.sent(inquiry.email) };
  }
}
