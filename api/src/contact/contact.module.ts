import { Module } from '@nestjs/common';
import { ContactController } from './contact.controller';

/** The site's Contact Sales form: mailed to sales, never stored (see docs/decisions.md, "Contact Sales"). */
@Module({ controllers: [ContactController] })
export class ContactModule {}
