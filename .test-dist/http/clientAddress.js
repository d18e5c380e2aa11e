import { BlockList, isIP } from "node:net";
const FORWARDED = ["x-forwarded-for", "x-forwarded-proto", "x-forwarded-host"];
function plain(address) {
  const trimmed = address.trim();
  return trimmed.startsWith("::ffff:") && isIP(trimmed.slice(7)) === 4 ? trimmed.slice(7) : trimmed;
}
function trustedProxies(cidrs) {
  const list = new BlockList();
  for (const cidr of cidrs) list.addSubnet(cidr.address, cidr.prefix, cidr.family === 6 ? "ipv6" : "ipv4");
  return (address) => {
    const ip = plain(address);
    const family = isIP(ip);
    return family !== 0 && cidrs.length > 0 && list.check(ip, family === 6 ? "ipv6" : "ipv4");
  };
}
function clientAddress(cidrs) {
  const trusted = trustedProxies(cidrs);
  return async (ctx, next) => {
    const peer = plain(ctx.req.socket.remoteAddress ?? "");
    if (!trusted(peer)) {
      for (const name of FORWARDED) delete ctx.req.headers[name];
      ctx.request.ip = peer;
    } else {
      const hops = (ctx.get("x-forwarded-for") || "").split(",").map(plain).filter((a) => a !== "");
      let client = peer;
      for (let i = hops.length - 1; i >= 0; i--) {
        client = hops[i];
        if (!trusted(client)) break;
      }
      ctx.request.ip = isIP(client) ? client : peer;
    }
    await next();
  };
}
export {
  clientAddress,
  trustedProxies
};
