/** A `LIKE`/`ILIKE` pattern that finds `text` anywhere, matched literally (`%`, `_` and `\` escaped; the default escape is `\`). */
export const likeContains = (text: string) => `%${text.replace(/[\\%_]/g, '\\$&')}%`;
