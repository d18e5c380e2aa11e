const TIERS = ["elite", "high", "medium", "low"];
const DORA_SOURCE = 'Google Cloud, "Accelerate State of DevOps Report 2023", section "Software delivery performance" (the four performance clusters)';
const HOUR = 3600;
const DAY = 24 * HOUR;
const THRESHOLDS = {
  /** Production deployments per day in the window, at least. */
  deploymentFrequency: { elite: 1, high: 1 / 7, medium: 1 / 30 },
  /** Seconds, less than. */
  leadTime: { elite: DAY, high: 7 * DAY, medium: 30 * DAY },
  /** Ratio, at most. */
  changeFailureRate: { elite: 0.05, high: 0.1, medium: 0.15 },
  /** Seconds, less than. */
  recoveryTime: { elite: HOUR, high: DAY, medium: 7 * DAY }
};
const THRESHOLD_RULES = {
  deploymentFrequency: { comparison: "at least", unit: "production deployments per day" },
  leadTime: { comparison: "less than", unit: "seconds" },
  changeFailureRate: { comparison: "at most", unit: "ratio (0\u20131)" },
  recoveryTime: { comparison: "less than", unit: "seconds" }
};
const below = (value, t) => value < t.elite ? "elite" : value < t.high ? "high" : value < t.medium ? "medium" : "low";
function leadTimeTier(seconds) {
  return seconds === null ? null : below(seconds, THRESHOLDS.leadTime);
}
function recoveryTier(seconds) {
  return seconds === null ? null : below(seconds, THRESHOLDS.recoveryTime);
}
function changeFailureTier(rate) {
  if (rate === null) return null;
  const t = THRESHOLDS.changeFailureRate;
  return rate <= t.elite ? "elite" : rate <= t.high ? "high" : rate <= t.medium ? "medium" : "low";
}
function deploymentRateTier(perDay) {
  if (perDay === null) return null;
  const t = THRESHOLDS.deploymentFrequency;
  return perDay >= t.elite ? "elite" : perDay >= t.high ? "high" : perDay >= t.medium ? "medium" : "low";
}
function deploymentFrequencyTier(deploys, days) {
  if (deploys === null || days <= 0) return null;
  return deploymentRateTier(deploys / days);
}
const DORA_MEASURES = {
  "deployments.production_deploys": "deploymentFrequency",
  "deployments.production_deploys_per_day": "deploymentFrequency",
  "change_lead_times.lead_time_for_changes_p50_seconds": "leadTime",
  "deployments.change_failure_rate": "changeFailureRate",
  "incidents.mttr_p50_seconds": "recoveryTime",
  "deployments.failed_deployment_recovery_time_p50_seconds": "recoveryTime"
};
function isDoraMeasure(member) {
  return Object.hasOwn(DORA_MEASURES, member);
}
function doraTier(member, value, days) {
  switch (DORA_MEASURES[member]) {
    // The rate is already per day; the count needs the window's days.
    case "deploymentFrequency":
      return member === "deployments.production_deploys_per_day" ? deploymentRateTier(value) : deploymentFrequencyTier(value, days);
    case "leadTime":
      return leadTimeTier(value);
    case "changeFailureRate":
      return changeFailureTier(value);
    case "recoveryTime":
      return recoveryTier(value);
  }
}
export {
  DORA_MEASURES,
  DORA_SOURCE,
  THRESHOLDS,
  THRESHOLD_RULES,
  TIERS,
  changeFailureTier,
  deploymentFrequencyTier,
  deploymentRateTier,
  doraTier,
  isDoraMeasure,
  leadTimeTier,
  recoveryTier
};
