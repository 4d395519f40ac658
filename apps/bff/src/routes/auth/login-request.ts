// `POST /bff/login`'s body as the BFF validates it: the sign-in form's fields (the schema the
// console's form checks) and `next`, the console page the sign-in leads to (first-page-of.ts).
import { z } from 'zod';

import { LoginInputSchema } from '@wsc/api-client';

export const LoginRequestSchema = LoginInputSchema.extend({
  // As the console's sign-in page takes its `redirect`.
  next: z.string().max(4096).optional(),
});
