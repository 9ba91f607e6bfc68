const EMAIL_PATTERN = /^[^\s@,;<>()]+@[^\s@,;<>()]+\.[^\s@,;<>()]{2,}$/;

export const MAX_RECIPIENTS = 50;

export interface ParsedRecipients {
  /** Lower-cased, in the order typed, each once. */
  valid: string[];
  /** As typed, each once. */
  invalid: string[];
}

/** Splits what the sender typed on commas, semicolons and whitespace; duplicates collapse. */
export function parseRecipients(text: string): ParsedRecipients {
  const valid: string[] = [];
  const invalid: string[] = [];
  for (const part of text.split(/[\s,;]+/)) {
    const address = part.trim();
    if (!address) continue;
    if (EMAIL_PATTERN.test(address) && address.length <= 254) {
      const normal = address.toLowerCase();
      if (!valid.includes(normal)) valid.push(normal);
    } else if (!invalid.includes(address)) {
      invalid.push(address);
    }
  }
  return { valid, invalid };
}

export function recipientsError({ valid, invalid }: ParsedRecipients): string | undefined {
  if (invalid.length === 1) return `“${invalid[0]}” is not a valid email address.`;
  if (invalid.length > 1) return `These are not valid email addresses: ${invalid.map((a) => `“${a}”`).join(', ')}.`;
  if (valid.length > MAX_RECIPIENTS) return `At most ${MAX_RECIPIENTS} recipients.`;
  return undefined;
}
