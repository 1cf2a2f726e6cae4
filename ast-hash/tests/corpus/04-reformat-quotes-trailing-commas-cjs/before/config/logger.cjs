'use strict';

const path = require('path');
const { createWriteStream } = require('fs');

const LEVELS = { error: 0, warn: 1, info: 2, debug: 3 };

function resolveLevel(env) {
  const requested = (env.LOG_LEVEL || 'info').toLowerCase();
  return Object.prototype.hasOwnProperty.call(LEVELS, requested) ? requested : 'info';
}

function createLogger(env, options) {
  const level = resolveLevel(env);
  const destination = options && options.file
    ? createWriteStream(path.resolve(options.dir || 'logs', options.file), { flags: 'a' })
    : process.stdout;
  function write(name, message, fields) {
    if (LEVELS[name] > LEVELS[level]) return;
    const record = { time: new Date().toISOString(), level: name, message: message, ...fields };
    destination.write(JSON.stringify(record) + '\n');
  }
  return {
    error: (message, fields) => write('error', message, fields),
    warn: (message, fields) => write('warn', message, fields),
    info: (message, fields) => write('info', message, fields),
    debug: (message, fields) => write('debug', message, fields)
  };
}

module.exports = { createLogger, LEVELS };
