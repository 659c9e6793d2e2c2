import { existsSync, readdirSync } from 'node:fs';
import express, { type RequestHandler } from 'express';

/**
 * The few unhashed public files (favicon, logo, social image), served by express.static with a
 * day's cache. Only the names the folder held at start-up reach it: otherwise every page request
 * would pay a failed stat() on the disk before routing.
 */
export function publicFiles(directory: string): RequestHandler {
  const names = new Set(existsSync(directory) ? readdirSync(directory).map((name) => `/${name}`) : []);
  const serve = express.static(directory, { index: false, maxAge: '1d' });
  return (req, res, next) => {
    if (names.has(req.path)) serve(req, res, next);
    else next();
  };
}
