/**
 * Hands a signed download URL to the browser's own download manager (which shows progress and
 * resumes), through a plain link with `download`: the page stays, and no byte passes through it.
 */
export function startDownload(url: string) {
  const link = document.createElement('a');
  link.href = url;
  // Empty: the server's Content-Disposition names the file.
  link.download = '';
  link.rel = 'noopener';
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
}
