import type { RequestHandler } from 'express';
import { isDatabaseReadable, type Db } from '../db/database';

/**
 * GET /healthz for the container's health check and a load balancer: 200 while the database can
 * be read (the one thing a lead needs that can fail on its own), 503 otherwise. Never cached.
 */
export function healthCheck(db: Db): RequestHandler {
  return (_req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    if (isDatabaseReadable(db)) res.json({ status: 'ok' });
    else res.status(503).json({ status: 'unavailable', reason: 'database cannot be read' });
  };
}
