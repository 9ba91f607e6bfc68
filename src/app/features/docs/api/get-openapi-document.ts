import { queryOptions } from '@tanstack/react-query';
import { requestJson } from '../../../lib/http';
import type { OpenApiDocument } from '../utils/openapi';

export const openApiDocumentUrl = '/api/v1/openapi.json';

export function getOpenApiDocument(): Promise<OpenApiDocument> {
  return requestJson<OpenApiDocument>(openApiDocumentUrl);
}

/** The public API's OpenAPI 3.1 document, as the server describes itself right now. */
export function openApiDocumentQueryOptions() {
  return queryOptions({ queryKey: ['openapi-document'], queryFn: getOpenApiDocument, staleTime: 5 * 60_000 });
}
