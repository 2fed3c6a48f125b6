/** Hands a file to the browser's downloads through a temporary link. */
function clickDownloadLink(href: string, fileName: string): void {
  const link = document.createElement('a');
  link.href = href;
  link.download = fileName;
  link.rel = 'noopener';
  link.style.display = 'none';
  document.body.append(link);
  link.click();
  link.remove();
}

/** Saves bytes already in the page under `fileName`. */
export function saveBlob(file: Blob, fileName: string): void {
  const url = URL.createObjectURL(file);
  clickDownloadLink(url, fileName);
  // The click only queues the download; revoking at once can cancel it in some browsers.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
