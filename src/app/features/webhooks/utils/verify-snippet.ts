/**
 * The Node.js code shown next to a new signing secret. Plain strings, rendered as text; the test
 * beside this file runs `verifyFunctionSnippet` against a signature made the way the server makes one.
 */

export const verifyFunctionSnippet = `import { createHmac, timingSafeEqual } from 'node:crypto';

// rawBody: the request body exactly as received (a Buffer), before any JSON parsing.
export function verifyWebhook(rawBody, signatureHeader, secret, toleranceSeconds = 300) {
  const fields = new Map(
    String(signatureHeader ?? '').split(',').map((part) => {
      const i = part.indexOf('=');
      return [part.slice(0, i).trim(), part.slice(i + 1).trim()];
    }),
  );
  const t = Number(fields.get('t'));
  // Refuse signatures older (or newer) than five minutes: a replayed request fails here.
  if (!Number.isInteger(t) || Math.abs(Date.now() / 1000 - t) > toleranceSeconds) return false;
  const expected = createHmac('sha256', secret).update(\`\${t}.\`).update(rawBody).digest();
  const given = Buffer.from(fields.get('v1') ?? '', 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}`;

export const verifyUsageSnippet = `// Express: keep the raw bytes for this route; parsed and re-serialized JSON would not match.
app.post('/webhooks/parcel', express.raw({ type: 'application/json' }), (req, res) => {
  if (!verifyWebhook(req.body, req.get('Service-Signature'), process.env.PARCEL_WEBHOOK_SECRET)) {
    return res.sendStatus(400);
  }
  const event = JSON.parse(req.body.toString('utf8'));
  // Delivery is at least once: skip an event.id (Service-Event-Id) you have already handled.
  res.sendStatus(200);
});`;

export const verifySnippet = `${verifyFunctionSnippet}\n\n${verifyUsageSnippet}\n`;
