/**
 * What kind of file a path holds: its MIME type, and whether it is text a
 * model can read or binary that must be refused (or served as a blob).
 */
import path from 'node:path';

/** Extensions whose files are text, with their MIME types. */
const TEXT_TYPES: Readonly<Record<string, string>> = {
  '.ipynb': 'application/x-ipynb+json',
  '.md': 'text/markdown',
  '.markdown': 'text/markdown',
  '.rst': 'text/x-rst',
  '.txt': 'text/plain',
  '.log': 'text/plain',
  '.csv': 'text/csv',
  '.tsv': 'text/tab-separated-values',
  '.json': 'application/json',
  '.jsonl': 'application/jsonl',
  '.ndjson': 'application/jsonl',
  '.geojson': 'application/geo+json',
  '.yaml': 'application/yaml',
  '.yml': 'application/yaml',
  '.toml': 'application/toml',
  '.ini': 'text/plain',
  '.cfg': 'text/plain',
  '.xml': 'application/xml',
  '.html': 'text/html',
  '.htm': 'text/html',
  '.css': 'text/css',
  '.svg': 'image/svg+xml',
  '.py': 'text/x-python',
  '.r': 'text/x-r',
  '.jl': 'text/x-julia',
  '.sql': 'application/sql',
  '.sh': 'text/x-shellscript',
  '.js': 'text/javascript',
  '.mjs': 'text/javascript',
  '.ts': 'text/x-typescript',
  '.tex': 'text/x-tex',
  '.bib': 'text/x-bibtex',
};

/** Extensions whose files are binary whatever their first bytes say, with their MIME types. */
const BINARY_TYPES: Readonly<Record<string, string>> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.bmp': 'image/bmp',
  '.ico': 'image/vnd.microsoft.icon',
  '.tif': 'image/tiff',
  '.tiff': 'image/tiff',
  '.pdf': 'application/pdf',
  '.zip': 'application/zip',
  '.gz': 'application/gzip',
  '.tgz': 'application/gzip',
  '.bz2': 'application/x-bzip2',
  '.xz': 'application/x-xz',
  '.7z': 'application/x-7z-compressed',
  '.tar': 'application/x-tar',
  '.parquet': 'application/vnd.apache.parquet',
  '.feather': 'application/vnd.apache.arrow.file',
  '.arrow': 'application/vnd.apache.arrow.file',
  '.h5': 'application/x-hdf5',
  '.hdf5': 'application/x-hdf5',
  '.nc': 'application/x-netcdf',
  '.npy': 'application/octet-stream',
  '.npz': 'application/octet-stream',
  '.pkl': 'application/octet-stream',
  '.pickle': 'application/octet-stream',
  '.joblib': 'application/octet-stream',
  '.pt': 'application/octet-stream',
  '.pth': 'application/octet-stream',
  '.onnx': 'application/octet-stream',
  '.safetensors': 'application/octet-stream',
  '.bin': 'application/octet-stream',
  '.sqlite': 'application/vnd.sqlite3',
  '.db': 'application/vnd.sqlite3',
  '.xls': 'application/vnd.ms-excel',
  '.xlsx': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  '.docx': 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  '.pptx': 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  '.mp3': 'audio/mpeg',
  '.wav': 'audio/wav',
  '.mp4': 'video/mp4',
  '.mov': 'video/quicktime',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
};

/** How many leading bytes are sniffed for NUL bytes (as git and grep do). */
export const SNIFF_BYTES = 8192;

/** The MIME type of a path from its extension: `text/plain` for an unknown text file, `application/octet-stream` for unknown binary. */
export function mimeTypeOf(filePath: string, binary = false): string {
  const ext = path.extname(filePath).toLowerCase();
  return TEXT_TYPES[ext] ?? BINARY_TYPES[ext] ?? (binary ? 'application/octet-stream' : 'text/plain');
}

/** True when the extension alone says the file is binary (no need to open it). */
export function isBinaryByName(filePath: string): boolean {
  return Object.prototype.hasOwnProperty.call(BINARY_TYPES, path.extname(filePath).toLowerCase());
}

/** True for a Jupyter notebook path. */
export function isNotebookPath(filePath: string): boolean {
  return path.extname(filePath).toLowerCase() === '.ipynb';
}

/**
 * True when a file's leading bytes hold a NUL: text files never do, while
 * nearly every binary format (and UTF-16 text, which we do not decode) does.
 */
export function looksBinary(head: Uint8Array): boolean {
  const end = Math.min(head.length, SNIFF_BYTES);
  for (let i = 0; i < end; i++) if (head[i] === 0) return true;
  return false;
}

/** A size for people: `812 B`, `12 KB`, `3.4 MB` (1 KB = 1024 B). */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value >= 10 ? Math.round(value) : Math.round(value * 10) / 10} ${units[unit]}`;
}
