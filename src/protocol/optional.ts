import { z } from 'zod';

/** An optional field: herdr's clients may send `null` for an absent one (serde `Option`), read as absent. */
export const optional = <T extends z.ZodType>(schema: T) => schema.nullish().transform((v) => v ?? undefined);
