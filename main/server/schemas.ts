/**
 * Request and response schemas of the local API. They are declared in shared/api so the renderer
 * derives its types from the very schemas routes validate with and the OpenAPI document
 * publishes; this module is the server's entry point to them.
 */
export * from '../../shared/api/schemas.js';
