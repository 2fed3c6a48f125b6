import { contactMessages, type SalesInquiry } from '@meshwork/contracts';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { errorMessage } from '../../../shared/api/api-error';
import { applyServerErrors } from '../../../shared/forms/apply-server-errors';
import { lazyZodResolver } from '../../../shared/forms/lazy-zod-resolver';
import { useSession } from '../../../shared/session/use-session';
import { notifyError } from '../../../shared/toast/notify';
import { Button } from '../../../shared/ui/button';
import { RegionCard } from '../../../shared/ui/region-card';
import { Spinner } from '../../../shared/ui/spinner';
import { TextAreaField, TextField } from '../../../shared/ui/text-field';
import { useSendSalesInquiry } from '../api/send-sales-inquiry';
import { inquiryDefaults } from './inquiry-defaults';

type InquiryInput = z.input<typeof SalesInquiry>;
type InquiryOutput = z.output<typeof SalesInquiry>;

const resolver = lazyZodResolver(() => import('@meshwork/contracts').then(({ SalesInquiry }) => SalesInquiry));

const serverFields = { name: 'name', email: 'email', company: 'company', message: 'message' } as const;

/** The Contact Sales form, checked with the api's own schema; `onSent` gets the server's confirmation. */
export function ContactForm({ onSent }: { onSent: (confirmation: string) => void }) {
  const { user } = useSession();
  const sendInquiry = useSendSalesInquiry();
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<InquiryInput, unknown, InquiryOutput>({
    resolver,
    // The session may answer after the page opens: fill in the user then, without wiping what is typed.
    values: inquiryDefaults(user),
    resetOptions: { keepDirtyValues: true },
  });

  const onSubmit = handleSubmit((inquiry) =>
    sendInquiry.mutate(inquiry, {
      onSuccess: (answer) => onSent(answer.message),
      // Field errors go under their fields; anything else (rate limit, mail down, offline) is a toast.
      // Either way the form keeps what was typed, so the visitor only has to press Send again.
      onError: (error) => {
        if (!applyServerErrors(error, setError, serverFields)) notifyError(errorMessage(error, contactMessages.notSent), error);
      },
    }),
  );

  return (
    <RegionCard title="Send us a message">
      <form noValidate onSubmit={onSubmit} onFocus={resolver.preload} className="space-y-5">
        <div className="grid gap-5 sm:grid-cols-2">
          <TextField label="Name" autoComplete="name" error={errors.name?.message} {...register('name')} />
          <TextField
            label="Work email"
            type="email"
            autoComplete="email"
            placeholder="you@company.com"
            error={errors.email?.message}
            {...register('email')}
          />
        </div>
        <TextField label="Company (optional)" autoComplete="organization" error={errors.company?.message} {...register('company')} />
        <TextAreaField
          label="How can we help?"
          rows={6}
          placeholder="Your sites and devices, the models you need, the systems Meshwork should work with…"
          error={errors.message?.message}
          {...register('message')}
        />
        <Button type="submit" disabled={sendInquiry.isPending} className="w-full sm:w-auto">
          {sendInquiry.isPending && <Spinner />}
          {sendInquiry.isPending ? 'Sending…' : 'Send Message'}
        </Button>
      </form>
    </RegionCard>
  );
}
