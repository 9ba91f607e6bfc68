/** Starts a download of `url` the same way a click on its link would: the browser's own download manager takes it from there (and resumes it). */
export function triggerDownload(url: string) {
  const link = document.createElement('a');
  link.href = url;
  link.download = '';
  link.referrerPolicy = 'no-referrer';
  link.rel = 'noreferrer';
  document.body.append(link);
  link.click();
  link.remove();
}
