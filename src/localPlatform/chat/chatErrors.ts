import type { z } from 'zod';
import { type HttpError, runtimeError } from '../http';

/** A Chat API error: `{error_message, field?}` (the spec does not show chat error bodies). */
export const chatError: (status: number, message: string, field?: string) => HttpError = runtimeError;

/** Turns the first problem zod found into a 400 that names the field. */
export function chatValidationError(error: z.ZodError): HttpError {
  const issue = error.issues[0];
  const field = issue && issue.path.length > 0 ? issue.path.map(String).join('.') : 'body';
  const text = issue?.message ?? 'Invalid request body';
  return chatError(400, text.includes(field) ? text : `${field}: ${text}`, field);
}
