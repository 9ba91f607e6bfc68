import { useId, type ReactNode } from 'react';
import { useIntl } from '../lib/intl';
import { CopyField } from './copy-field';
import { QrCode } from './qr-code';

interface ShareLinkProps {
  /** The copy field's label: "Secret link", "Upload link". */
  label: string;
  url: string;
  /** Who the link lets in, or what it does: tied to the field as its description. */
  description: ReactNode;
  /** The text of the link that opens the page: "Open the collection page". */
  openLabel: string;
  /** The QR code's accessible name. */
  qrLabel: string;
}

/**
 * A link to share: to copy, to open, or to scan from another device, with what it lets people do.
 * The QR code sits beside the link when its container has room (a dialog, a main column) and
 * under it when not (a sidebar, a phone).
 */
export function ShareLink({ label, url, description, openLabel, qrLabel }: ShareLinkProps) {
  const intl = useIntl();
  const descriptionId = useId();
  return (
    <div className="@container">
      <div className="flex flex-col gap-4 @md:flex-row @md:items-start">
        <div className="min-w-0 flex-1 space-y-2">
          <CopyField label={label} value={url} describedBy={descriptionId} />
          <p id={descriptionId} className="text-xs text-zinc-600 dark:text-zinc-400">
            {description}
          </p>
          <a
            href={url}
            target="_blank"
            rel="noreferrer"
            className="inline-block text-sm font-medium text-indigo-700 underline-offset-2 hover:underline dark:text-indigo-400"
          >
            {intl.formatMessage(
              { id: 'common.shareLink.open', defaultMessage: '{label}<hidden> (opens in a new tab)</hidden>' },
              {
                label: openLabel,
                hidden: (chunks) => (
                  <span key="hidden" className="sr-only">
                    {chunks}
                  </span>
                ),
              },
            )}
          </a>
        </div>
        <div className="self-center @md:self-start">
          <QrCode value={url} label={qrLabel} size={132} />
        </div>
      </div>
    </div>
  );
}
