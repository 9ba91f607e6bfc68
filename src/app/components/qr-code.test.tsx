import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { QrCode } from './qr-code';

describe('QrCode', () => {
  it('draws the link as an accessible image whose pattern changes with the link', () => {
    const { rerender } = render(<QrCode value="http://localhost:8080/t/abc" label="QR code for the link" />);
    const first = screen.getByRole('img', { name: 'QR code for the link' }).querySelector('path')!.getAttribute('d');
    expect(first).toMatch(/^M\d+ \d+h1v1h-1z/);
    rerender(<QrCode value="http://localhost:8080/t/xyz" label="QR code for the link" />);
    expect(screen.getByRole('img', { name: 'QR code for the link' }).querySelector('path')!.getAttribute('d')).not.toBe(first);
  });
});
