const monthIndex = (month) => Number(month.slice(0, 4)) * 12 + Number(month.slice(5, 7)) - 1;
const monthOf = (index) => `${String(Math.floor(index / 12)).padStart(4, "0")}-${String(index % 12 + 1).padStart(2, "0")}`;
const daysIn = (month) => new Date(Date.UTC(Number(month.slice(0, 4)), Number(month.slice(5, 7)), 0)).getUTCDate();
const lastDay = (month) => new Date(Date.UTC(Number(month.slice(0, 4)), Number(month.slice(5, 7)), 0)).toISOString().slice(0, 10);
function monthRange(from, to) {
  const out = [];
  for (let i = monthIndex(from); i <= monthIndex(to); i += 1) out.push(monthOf(i));
  return out;
}
export {
  daysIn,
  lastDay,
  monthIndex,
  monthOf,
  monthRange
};
