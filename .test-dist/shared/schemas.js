import { z } from "zod";
const Uuid = z.uuid();
const isUuid = (value) => Uuid.safeParse(value).success;
const MONTH_PATTERN = /^(19[7-9]\d|[2-9]\d{3})-(0[1-9]|1[0-2])$/;
const Month = z.string().regex(MONTH_PATTERN, "Must be a month YYYY-MM");
const PROJECT_KEY = /^[^/\s]{1,100}\/[^/\s]{1,100}$/;
export {
  MONTH_PATTERN,
  Month,
  PROJECT_KEY,
  Uuid,
  isUuid
};
