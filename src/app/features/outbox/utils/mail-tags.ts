const tagNames: Record<string, string> = {
  'transfer.sent': 'Transfer sent',
};

/** A message's tag in words ("Transfer sent"); a tag this dashboard does not know yet is shown as it is. */
export function describeMailTag(tag: string): string {
  return tagNames[tag] ?? tag;
}
