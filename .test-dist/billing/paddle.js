import { ApiError, Paddle } from "@paddle/paddle-node-sdk";
import { AppError } from "../errors.js";
const READ_TIMEOUT_MS = 5e3;
function within(ms, work) {
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error("timed out")), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}
async function readSubscription(config, subscriptionId) {
  const paddle = new Paddle(config.apiKey, { environment: config.apiUrl });
  try {
    const s = await within(READ_TIMEOUT_MS, paddle.subscriptions.get(subscriptionId));
    return { id: s.id, status: s.status, customData: s.customData ?? null };
  } catch (error) {
    if (error instanceof ApiError && error.code === "not_found") return null;
    throw new AppError("unavailable", "Paddle could not confirm the subscription; the notification will be retried");
  }
}
export {
  READ_TIMEOUT_MS,
  readSubscription
};
