/** A file- and id-safe form of a user-supplied name. */
export function slug(s: string): string {
  return s.replace(/[^\w.-]+/g, '-').replace(/^-+|-+$/g, '') || 'x';
}
