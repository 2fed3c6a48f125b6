import { type ArgumentMetadata, BadRequestException, type PipeTransform } from '@nestjs/common';
import type { z } from 'zod';
import type { ErrorBody } from './error-body';

/** Thrown for input that fails its schema; carries the field map the site shows per field. */
export class ValidationFailed extends BadRequestException {
  constructor(readonly body: ErrorBody) {
    super(body);
  }
}

/**
 * Validates a body, query or param against a zod schema from contracts/ and hands the
 * handler the parsed value. Field problems come back as `errors: {field: [message]}`;
 * problems with the whole payload as `non_field_errors`. A single route parameter or query
 * value (`@Param('id', pipe)`) is reported under its own name.
 */
export class ZodPipe<T extends z.ZodType> implements PipeTransform<unknown, z.output<T>> {
  /** `schema` is public: the OpenAPI document describes the input with it. */
  constructor(readonly schema: T) {}

  transform(value: unknown, metadata?: ArgumentMetadata): z.output<T> {
    const parsed = this.schema.safeParse(value);
    if (parsed.success) return parsed.data;
    const errors: Record<string, string[]> = {};
    const nonField: string[] = [];
    const named = metadata?.type !== 'body' && metadata?.data ? [metadata.data] : [];
    for (const issue of parsed.error.issues) {
      const field = [...named, ...issue.path.map(String)].join('.');
      if (field) (errors[field] ??= []).push(issue.message);
      else nonField.push(issue.message);
    }
    const first = Object.values(errors)[0]?.[0] ?? nonField[0];
    throw new ValidationFailed({
      message: first ?? 'Invalid request. Please check your input.',
      ...(Object.keys(errors).length > 0 ? { errors } : {}),
      ...(nonField.length > 0 ? { non_field_errors: nonField } : {}),
    });
  }
}
