// "Share": the system share sheet with the JPEG as a file where the browser offers file sharing
// (navigator.canShare), else a download of it under its name. Nothing leaves the machine but
// through what the user picks in the sheet.

/** Shares or downloads the JPEG at URL as NAME; resolves to "shared", "downloaded" or "cancelled". */
export async function shareOrDownload(url, name, title) {
  const response = await fetch(url);
  if (!response.ok) {
    const error = new Error(response.status === 404 ? "the collage is no longer kept by the server" : `${response.status} ${response.statusText}`);
    error.status = response.status;
    throw error;
  }
  const blob = await response.blob();
  const file = new File([blob], name, { type: "image/jpeg" });
  if (typeof navigator.canShare === "function" && navigator.canShare({ files: [file] })) {
    try {
      await navigator.share({ files: [file], title });
      return "shared";
    } catch (error) {
      if (error?.name === "AbortError") return "cancelled";
      // A sheet that refuses (no gesture left, a policy): the download still gives the file.
    }
  }
  const link = Object.assign(document.createElement("a"), { href: URL.createObjectURL(file), download: name });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 60_000);
  return "downloaded";
}
