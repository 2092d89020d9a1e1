// Files dropped from another app: each is checked against what the server takes (its type and
// size, which the browser knows at the drop) before a byte is sent; the others are uploaded one
// by one with progress. A refused file is left out and said by name, with the reason, in words.

import { WELL_PERCENT, WELL_PROGRESS, WELL_STATUS } from './selectors.js';

const MB = 1024 * 1024;

function megabytes(bytes, limit) {
  const rounded = Math.round(bytes / MB);
  // Never "20 MB; the limit is 20 MB": one decimal where rounding would hide the excess.
  return rounded > limit / MB ? `${rounded} MB` : `${Math.ceil((bytes / MB) * 10) / 10} MB`;
}

/** Why the server would refuse `file` before it is sent, or null. `single`: the drop's only file. */
export function refusalBeforeUpload(file, limits, single) {
  if (!limits) return null;
  if (!limits.types.includes(file.type)) return `${file.name} was not added: it is not a PNG, JPEG, GIF or WebP image.`;
  if (file.size > limits.maxBytes) {
    return `${single ? 'This image' : file.name} is ${megabytes(file.size, limits.maxBytes)}; the limit is ${Math.round(limits.maxBytes / MB)} MB.`;
  }
  return null;
}

/** The reason of a refused upload, for people: the server checks the bytes, not the name. */
function refusalOfUpload(file, error) {
  if (error.status === 415) {
    return `${file.name} was not added: its contents are not a PNG, JPEG, GIF or WebP image, whatever its name says `
      + '(a file’s contents can only be checked once it is dropped).';
  }
  return `${file.name} was not added: ${error.message}.`;
}

/**
 * Uploads the files the server would take, showing progress in `target`'s meter when it has one.
 * Resolves to `{ ids, refused }`: an upload id per file, in order (null for a refused file), and
 * the reasons of the refused ones. A lost connection rejects.
 */
export async function uploadFiles(api, token, files, limits, target) {
  const meter = target.querySelector(WELL_PROGRESS);
  const status = target.querySelector(WELL_STATUS);
  if (status) status.textContent = '';
  const ids = [];
  const refused = [];
  const sent = files.filter((file) => !refusalBeforeUpload(file, limits, files.length === 1));
  try {
    for (const file of files) {
      const before = refusalBeforeUpload(file, limits, files.length === 1);
      if (before) { refused.push(before); ids.push(null); continue; }
      const index = sent.indexOf(file);
      try {
        const answer = await api.upload(token, file, (fraction) => {
          if (!meter) return;
          const percent = Math.round(((index + fraction) / sent.length) * 100);
          meter.hidden = false;
          meter.querySelector('progress').value = percent;
          meter.querySelector(WELL_PERCENT).textContent = `${percent}%`;
        });
        ids.push(answer.file);
      } catch (error) {
        if (error.offline) throw error;
        refused.push(refusalOfUpload(file, error));
        ids.push(null);
      }
    }
  } finally {
    if (meter) meter.hidden = true;
  }
  if (status) status.textContent = refused.join(' ');
  return { ids, refused };
}
