import { ActivationQuery, normalizeUserCode } from '@meshwork/contracts';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { Button } from '../../../shared/ui/button';
import { Spinner } from '../../../shared/ui/spinner';
import { TextField } from '../../../shared/ui/text-field';

// The contract's query, and the code's shape: 8 letters of the code alphabet, dashes and case aside.
const CodeForm = ActivationQuery.refine((q) => normalizeUserCode(q.user_code) !== null, {
  path: ['user_code'],
  message: 'Codes look like BCDF-GHJK: 8 letters, as your device shows them.',
});
type CodeInput = z.input<typeof CodeForm>;

/** The code the device shows, typed or prefilled from ?user_code=. */
export function CodeEntryForm({
  initialCode,
  checking,
  serverError,
  onSubmit,
}: {
  initialCode: string;
  checking: boolean;
  serverError: string | null;
  onSubmit: (code: string) => void;
}) {
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<CodeInput>({ resolver: zodResolver(CodeForm), defaultValues: { user_code: initialCode } });

  return (
    <form noValidate onSubmit={handleSubmit(({ user_code }) => onSubmit(normalizeUserCode(user_code)!))} className="space-y-5">
      {serverError && (
        <p role="alert" className="rounded-lg bg-red-50 p-3 text-sm text-red-800 dark:bg-red-950/40 dark:text-red-200">
          {serverError}
        </p>
      )}
      <TextField
        label="Code shown on your device"
        autoFocus
        autoComplete="off"
        autoCapitalize="characters"
        spellCheck={false}
        placeholder="XXXX-XXXX"
        className="font-mono"
        error={errors.user_code?.message}
        {...register('user_code')}
      />
      <Button type="submit" fullWidth disabled={checking}>
        {checking && <Spinner />}
        Continue
      </Button>
    </form>
  );
}
