/**
 * The resources the conformance scenarios read, list and subscribe to: a
 * text and a binary resource, a subscribable one, and a URI template whose
 * variable must show up in what is read.
 */
import type { ResourceSpec } from '@reactor/host';
import { PNG_MIME_TYPE, RED_PIXEL_PNG_BASE64 } from './media.js';

/** The text of `test://static-text`. */
export const STATIC_TEXT = 'This is the content of the static text resource.';

/** The resource URI a client may subscribe to (scenarios resources-subscribe/-unsubscribe). */
export const WATCHED_RESOURCE_URI = 'test://watched-resource';

/** The template of scenario resources-templates-read. */
export const DATA_TEMPLATE = 'test://template/{id}/data';

/** Ids the template lists and completes; any other id reads as well. */
const KNOWN_IDS = ['1', '2', '3', '123'];

function single(value: string | readonly string[] | undefined): string {
  return typeof value === 'string' ? value : (value?.[0] ?? '');
}

/** The conformance resources, in the order `resources/list` shows them. */
export const conformanceResources: ResourceSpec[] = [
  {
    name: 'static-text',
    uri: 'test://static-text',
    title: 'Static text',
    description: 'A fixed text resource (conformance scenario resources-read-text).',
    mimeType: 'text/plain',
    read: (uri) => ({ contents: [{ uri: uri.href, mimeType: 'text/plain', text: STATIC_TEXT }] }),
  },
  {
    name: 'static-binary',
    uri: 'test://static-binary',
    title: 'Static binary',
    description: 'A 1×1 red PNG, read as a base64 blob (conformance scenario resources-read-binary).',
    mimeType: PNG_MIME_TYPE,
    read: (uri) => ({ contents: [{ uri: uri.href, mimeType: PNG_MIME_TYPE, blob: RED_PIXEL_PNG_BASE64 }] }),
  },
  {
    name: 'watched-resource',
    uri: WATCHED_RESOURCE_URI,
    title: 'Watched resource',
    description: 'A resource clients may subscribe to (conformance scenarios resources-subscribe and resources-unsubscribe).',
    mimeType: 'text/plain',
    subscribe: true,
    read: (uri) => ({ contents: [{ uri: uri.href, mimeType: 'text/plain', text: 'Watched resource content.' }] }),
  },
  {
    name: 'template-data',
    template: DATA_TEMPLATE,
    title: 'Templated data',
    description: 'JSON data for any id; the id is substituted into what is read (conformance scenario resources-templates-read).',
    mimeType: 'application/json',
    read: (uri, variables) => {
      const id = single(variables.id);
      return {
        contents: [{ uri: uri.href, mimeType: 'application/json', text: JSON.stringify({ id, templateTest: true, data: `Data for ID: ${id}` }) }],
      };
    },
    list: () => KNOWN_IDS.map((id) => ({ uri: `test://template/${id}/data`, name: `template-data-${id}`, title: `Data for ID ${id}` })),
    complete: { id: (value) => KNOWN_IDS.filter((id) => id.startsWith(value)) },
  },
];
