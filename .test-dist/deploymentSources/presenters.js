function presentDeploymentSource(row) {
  return {
    projectId: row.projectId,
    projectKey: row.projectKey,
    /** null: not chosen yet; the first source that delivers a deployment claims the project. */
    source: row.source,
    workflow: row.workflow,
    branch: row.branch,
    productionEnvironment: row.productionEnvironment,
    /** Rows already stored, by writer: a switch keeps them (docs/codehost-deployments.md). */
    storedDeployments: { webhook: row.webhookDeployments, codehost: row.codehostDeployments }
  };
}
export {
  presentDeploymentSource
};
