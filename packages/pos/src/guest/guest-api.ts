import type { paths } from '@comanda/client';
import createClient from 'openapi-fetch';

// The guest page's one client: the public routes behind the bill's QR, the token read from /g/{token}.
export const api = createClient<paths>({ baseUrl: location.origin });
export const token = decodeURIComponent(location.pathname.split('/')[2] ?? '');

type Json<P extends keyof paths, M extends keyof paths[P], S extends number> = paths[P][M] extends { responses: Record<S, { content: { 'application/json': infer B } }> } ? B : never;
export type Bill = Json<'/guest/{token}', 'get', 200>;
export type Invoice = Json<'/guest/{token}/lightning', 'post', 201>;
/** A guest's invoice as the bill has it; once paid, the receipt's figures. */
export type Payment = Json<'/guest/{token}/payments/{hash}', 'get', 200>;
/** What the guest asked to pay: the share (and its guests or lines). */
export interface Ask { share: 'all' | 'even' | 'lines'; guests: number; lineIds: string[] }

export async function loadBill(): Promise<Bill | null> {
  const { data } = await api.GET('/guest/{token}', { params: { path: { token } } });
  return data ?? null;
}
