import { describe, expect, it } from 'vitest';
import { decodeHeaderValue, readMessage } from './read-message';

/** A recipient mail exactly as the server's mailer (nodemailer) writes it, with a link long enough to be broken across quoted-printable lines. */
const kept = [
  "From: Parcel <no-reply@localhost>",
  "To: =?UTF-8?Q?Zo=C3=AB?= <zoe@example.com>",
  "Subject: =?UTF-8?Q?Ada_sent_you_2_files_=E2=80=94_Q3_?=",
  " =?UTF-8?Q?=E2=80=9Creport=E2=80=9D?=",
  "Message-ID: <fixed@localhost>",
  "Date: Fri, 20 Nov 2026 10:00:00 +0000",
  "MIME-Version: 1.0",
  "Content-Type: multipart/alternative;",
  " boundary=\"--_NmP-b0e06f0f369de42b-Part_1\"",
  "",
  "----_NmP-b0e06f0f369de42b-Part_1",
  "Content-Type: text/plain; charset=utf-8",
  "Content-Transfer-Encoding: quoted-printable",
  "",
  "Ada sent you 2 files =E2=80=94 Q3 =E2=80=9Creport=E2=80=9D",
  "",
  "Hi both,",
  "",
  "Here are the files.",
  "",
  "Download: https://parcel.example/t/dWbyqt95dGAV3NthvcP=",
  "gjl?r=3DeyJhbGciOiJIUzI1NiJ9.eyJyIjoicmNwXzEyMzQ1Njc4OTAiLCJ0IjoidHJfMTIzND=",
  "U2Nzg5MCJ9.c2lnbmF0dXJlX2hlcmVfbG9uZw",
  "",
  "----_NmP-b0e06f0f369de42b-Part_1",
  "Content-Type: text/html; charset=utf-8",
  "Content-Transfer-Encoding: quoted-printable",
  "",
  "<!doctype html>",
  "<html>",
  "<head><meta charset=3D\"utf-8\"><meta =",
  "name=3D\"viewport\" content=3D\"width=3Ddevice-width,initial-scale=3D1\"><title=",
  ">Ada sent you 2 files =E2=80=94 Q3 =E2=80=9Creport=E2=80=9D</title></head>",
  "<body style=3D\"margin:0;padding:0;background:#f3f4f6\">",
  "<div style=3D\"max-width:560px;margin:0 auto;padding:32px =",
  "24px;background:#ffffff\">",
  "<h1 style=3D\"margin:0 0 20px;font-family:-apple-s=",
  "ystem,BlinkMacSystemFont,Segoe UI,Helvetica,Arial,sans-serif;font-size:20px=",
  ";line-height:1.3;color:#111827\">Ada sent you 2 files =E2=80=94 Q3 =",
  "=E2=80=9Creport=E2=80=9D</h1>",
  "<p style=3D\"margin:0 0 =",
  "16px;font-family:-apple-system,BlinkMacSystemFont,Segoe UI,Helvetica,Arial,=",
  "sans-serif;font-size:15px;line-height:1.5;color:#1f2937\">Hi both,</p>",
  "<p style=3D\"margin:0 0 16px;font-family:-apple-system,BlinkMacSystemFont,=",
  "Segoe UI,Helvetica,Arial,sans-serif;font-size:15px;line-height:1.=",
  "5;color:#1f2937\">Here are the files.</p>",
  "<p style=3D\"margin:24px 0\"><a =",
  "href=3D\"https://parcel.example/t/dWbyqt95dGAV3NthvcPgjl?=",
  "r=3DeyJhbGciOiJIUzI1NiJ9.eyJyIjoicmNwXzEyMzQ1Njc4OTAiLCJ0IjoidHJfMTIzNDU2Nz=",
  "g5MCJ9.c2lnbmF0dXJlX2hlcmVfbG9uZw\" style=3D\"display:inline-block;padding:12=",
  "px 20px;border-radius:6px;background:#2563eb;color:#ffffff;text-decoration:=",
  "none;font-family:-apple-system,BlinkMacSystemFont,Segoe UI,Helvetica,Arial,=",
  "sans-serif;font-size:15px;font-weight:600\">Download</a></p>",
  "<p style=3D\"margin:0 0 16px;font-family:-apple-system,BlinkMacSystemFont,=",
  "Segoe UI,Helvetica,Arial,sans-serif;font-size:13px;line-height:1.=",
  "5;color:#6b7280;word-break:break-all\">https://parcel.=",
  "example/t/dWbyqt95dGAV3NthvcPgjl?r=3DeyJhbGciOiJIUzI1NiJ9.=",
  "eyJyIjoicmNwXzEyMzQ1Njc4OTAiLCJ0IjoidHJfMTIzNDU2Nzg5MCJ9.=",
  "c2lnbmF0dXJlX2hlcmVfbG9uZw</p>",
  "</div>",
  "</body>",
  "</html>",
  "",
  "----_NmP-b0e06f0f369de42b-Part_1--",
  "",
].join('\r\n');

const link =
  'https://parcel.example/t/dWbyqt95dGAV3NthvcPgjl?r=eyJhbGciOiJIUzI1NiJ9.eyJyIjoicmNwXzEyMzQ1Njc4OTAiLCJ0IjoidHJfMTIzNDU2Nzg5MCJ9.c2lnbmF0dXJlX2hlcmVfbG9uZw';

describe('readMessage', () => {
  it('decodes the quoted-printable text part, so a long link is one line again', () => {
    const { text } = readMessage(kept);
    expect(text).toContain(`Download: ${link}\n`);
    expect(text).toContain('Ada sent you 2 files — Q3 “report”');
    expect(text).toContain('Hi both,\n\nHere are the files.');
    expect(text).not.toMatch(/=\n|=3D|=E2/);
  });

  it('decodes the HTML part as text, and the encoded words of the headers', () => {
    const { html, headers } = readMessage(kept);
    expect(html).toContain(`href="${link}"`);
    expect(html).toContain('<meta charset="utf-8">');
    const header = (name: string) => headers.find((h) => h.name === name)?.value;
    expect(header('Subject')).toBe('Ada sent you 2 files — Q3 “report”');
    expect(header('To')).toBe('Zoë <zoe@example.com>');
    expect(header('From')).toBe('Parcel <no-reply@localhost>');
  });

  it('reads single-part, base64 and 8bit messages too', () => {
    const base64 = ['Subject: =?UTF-8?B?R3LDvMOfZQ==?=', 'Content-Type: text/plain; charset=utf-8', 'Content-Transfer-Encoding: base64', '', Buffer.from('Grüße\n').toString('base64')].join('\r\n');
    const read = readMessage(base64);
    expect(read.text).toBe('Grüße\n');
    expect(read.html).toBeNull();
    expect(read.headers[0]).toEqual({ name: 'Subject', value: 'Grüße' });
    const plain = ['Subject: Hi', '', 'Just text, café.'].join('\r\n');
    expect(readMessage(plain).text).toBe('Just text, café.');
  });

  it('joins adjacent encoded words without the space between them, and keeps plain words', () => {
    expect(decodeHeaderValue('=?UTF-8?Q?Ada_sent?= =?UTF-8?Q?_you?= files')).toBe('Ada sent you files');
  });
});
