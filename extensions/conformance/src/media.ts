/**
 * The smallest valid media the conformance scenarios ask for: clients check
 * that image and audio items carry base64 data and a MIME type, not what the
 * picture shows, so a 1×1 PNG and a 1 ms WAV are enough.
 */

/** A 1×1 red pixel, RGB, as a base64 PNG. */
export const RED_PIXEL_PNG_BASE64 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC';

/** The MIME type of {@link RED_PIXEL_PNG_BASE64}. */
export const PNG_MIME_TYPE = 'image/png';

/** The MIME type of {@link SILENT_WAV_BASE64}; the audio scenario checks for exactly this one. */
export const WAV_MIME_TYPE = 'audio/wav';

/**
 * Builds a RIFF/WAVE file of `samples` silent 8-bit mono samples at 8 kHz.
 * Built rather than pasted so the header's arithmetic is visible and checked.
 */
export function silentWav(samples = 8): Buffer {
  const sampleRate = 8000;
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'ascii');
  header.writeUInt32LE(36 + samples, 4);
  header.write('WAVE', 8, 'ascii');
  header.write('fmt ', 12, 'ascii');
  header.writeUInt32LE(16, 16); // PCM format chunk size
  header.writeUInt16LE(1, 20); // PCM
  header.writeUInt16LE(1, 22); // mono
  header.writeUInt32LE(sampleRate, 24);
  header.writeUInt32LE(sampleRate, 28); // byte rate: rate × channels × 1 byte
  header.writeUInt16LE(1, 32); // block align
  header.writeUInt16LE(8, 34); // bits per sample
  header.write('data', 36, 'ascii');
  header.writeUInt32LE(samples, 40);
  // Unsigned 8-bit PCM is silent at its midpoint, 128.
  return Buffer.concat([header, Buffer.alloc(samples, 128)]);
}

/** {@link silentWav} as base64, computed once. */
export const SILENT_WAV_BASE64 = silentWav().toString('base64');
