// Preload (NODE_OPTIONS=--require <this file>) that keeps test servers on the loopback:
// a listen() that names no host binds 127.0.0.1 instead of every interface. Listeners on
// an explicit host, a unix socket, a handle or an fd are left alone.
'use strict';
const net = require('node:net');

const listen = net.Server.prototype.listen;
const isPort = (value) => typeof value === 'number' || (typeof value === 'string' && /^\d+$/.test(value));

net.Server.prototype.listen = function listenOnLoopback(...args) {
  const [first] = args;
  if (first !== null && typeof first === 'object' && !Array.isArray(first)) {
    const bound = first.path !== undefined || first.handle !== undefined || first.fd !== undefined || first._handle;
    if (!bound && !first.host) args[0] = { ...first, host: '127.0.0.1' };
  } else if (isPort(first)) {
    if (typeof args[1] !== 'string') args.splice(1, 0, '127.0.0.1');
  } else if (first === undefined || typeof first === 'function') {
    args.unshift(0, '127.0.0.1');
  }
  return listen.apply(this, args);
};
