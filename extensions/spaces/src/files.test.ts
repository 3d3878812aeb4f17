import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTempSpaces, type TempSpaces } from '../test/tempSpaces.js';
import { fileOfPath, loadText, pageText, readText, spaceFileUri } from './files.js';
import { resolveFile } from './safePath.js';
import { SAMPLE_ROOT } from './spaceRoots.js';

let temp: TempSpaces;
beforeAll(async () => {
  temp = await makeTempSpaces();
});
afterAll(async () => {
  await temp.cleanup();
});

const climate = { name: 'climate-lab', dir: `${SAMPLE_ROOT}/climate-lab` };

describe('binary files', () => {
  it('refuses a PNG by name, saying its size and type and where to get it instead', async () => {
    const file = fileOfPath(await resolveFile(climate, 'figures/temperature_anomaly.png'));
    expect(await loadText(file, 1 << 20)).toEqual({ binary: true, mimeType: 'image/png' });
    await expect(readText(file, 1 << 20)).rejects.toThrow(
      'path "figures/temperature_anomaly.png" in space "climate-lab": binary file: 5.1 KB image/png, not text; hint: read the resource spaces://climate-lab/figures/temperature_anomaly.png',
    );
  });

  it('refuses a file whose first bytes hold a NUL, whatever its extension', async () => {
    const file = fileOfPath(await resolveFile(temp.alpha, 'blob.dat'));
    expect(await loadText(file, 1 << 20)).toEqual({ binary: true, mimeType: 'application/octet-stream' });
    await expect(readText(file, 1 << 20)).rejects.toThrow(/binary file: 6 B application\/octet-stream/);
  });

  it('reads text files with their MIME type', async () => {
    const file = fileOfPath(await resolveFile(climate, 'data/iris.csv'));
    const { text, mimeType } = await readText(file, 1 << 20);
    expect(mimeType).toBe('text/csv');
    expect(text.split('\n')[0]).toBe('sepal_length,sepal_width,petal_length,petal_width,species');
  });

  it('refuses a text file larger than the load limit', async () => {
    const file = fileOfPath(await resolveFile(climate, 'data/global_temperatures.csv'));
    await expect(readText(file, 100)).rejects.toThrow(/is too large to load \(2.2 KB\); expected at most 100 B; hint: read it in pages with read_file/);
  });
});

describe('pageText', () => {
  const text = 'abcdefghij';

  it('returns a page and the offset of the next, null at the end', () => {
    expect(pageText(text, 0, 4, 1000)).toEqual({ text: 'abcd', offset: 0, nextOffset: 4 });
    expect(pageText(text, 4, 4, 1000)).toEqual({ text: 'efgh', offset: 4, nextOffset: 8 });
    expect(pageText(text, 8, 4, 1000)).toEqual({ text: 'ij', offset: 8, nextOffset: null });
  });

  it('pages through a whole text without losing or repeating a character', () => {
    const long = Array.from({ length: 500 }, (_, i) => `line ${i} 🌍 é\n`).join('');
    let offset: number | null = 0;
    let joined = '';
    let pages = 0;
    while (offset !== null) {
      const page = pageText(long, offset, 97, 120);
      joined += page.text;
      offset = page.nextOffset;
      pages++;
    }
    expect(joined).toBe(long);
    expect(pages).toBeGreaterThan(long.length / 97);
  });

  it('fits a page into the byte budget when characters take several bytes', () => {
    const page = pageText('ééééé', 0, 100, 4);
    expect(page).toEqual({ text: 'éé', offset: 0, nextOffset: 2 });
  });

  it('never splits a surrogate pair', () => {
    const page = pageText('a🌍b', 0, 2, 1000);
    expect(page.text).toBe('a');
    expect(page.nextOffset).toBe(1);
    expect(pageText('🌍b', 0, 1, 1000).text).toBe('🌍');
  });

  it('returns an empty last page at the very end, and refuses an offset past it', () => {
    expect(pageText(text, 10, 5, 100)).toEqual({ text: '', offset: 10, nextOffset: null });
    expect(pageText('', 0, 5, 100)).toEqual({ text: '', offset: 0, nextOffset: null });
    expect(() => pageText(text, 11, 5, 100, 'path "x"')).toThrow('path "x": offset 11 is past the end; expected an offset from 0 to 10');
  });
});

describe('spaceFileUri', () => {
  it('percent-encodes the space and each path segment, keeping the slashes', () => {
    expect(spaceFileUri('climate-lab', 'data/iris.csv')).toBe('spaces://climate-lab/data/iris.csv');
    expect(spaceFileUri('my space', 'a b/c#d.md')).toBe('spaces://my%20space/a%20b/c%23d.md');
    expect(spaceFileUri('climate-lab', '')).toBe('spaces://climate-lab/');
  });
});
