function presentWebhookResult(result) {
  return {
    status: result.action === "created" ? 201 : 200,
    body: { success: true, action: result.action, id: result.id, externalId: result.externalId }
  };
}
export {
  presentWebhookResult
};
