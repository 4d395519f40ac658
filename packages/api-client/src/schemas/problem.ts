import { z } from 'zod';

/** One field-level problem inside a 400/422 problem document. */
export const FieldProblemSchema = z.object({
  field: z.string(),
  message: z.string(),
});
export type FieldProblem = z.infer<typeof FieldProblemSchema>;

/** RFC 9457 `application/problem+json` body. Extra members are kept (e.g. `position` for RSQL). */
export const ProblemSchema = z.looseObject({
  type: z.string(),
  title: z.string(),
  status: z.number().int(),
  detail: z.string().optional(),
  instance: z.string().optional(),
  errors: z.array(FieldProblemSchema).optional(),
});
export type Problem = z.infer<typeof ProblemSchema>;
