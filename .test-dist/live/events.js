const LIVE_CHANNEL = "da_live";
const MAX_PAYLOAD_BYTES = 7500;
export {
  LIVE_CHANNEL,
  MAX_PAYLOAD_BYTES
};
