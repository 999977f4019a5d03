package io.kcscale.lab.cli;

import java.util.ArrayList;
import java.util.List;

/** A flag's list of task counts, checked: whole numbers from 1, increasing, none above the partitions. */
final class TaskCounts {

    private TaskCounts() {}

    /**
     * @param example a valid list, named in the refusals
     * @throws IllegalArgumentException naming {@code flag} and what to change
     */
    static List<Integer> parse(String flag, String list, String example, int partitions) {
        List<Integer> counts = new ArrayList<>();
        for (String item : list.split(",", -1)) {
            int n;
            try {
                n = Integer.parseInt(item.strip());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(
                        flag + " must be whole numbers separated by commas, e.g. " + example + "; got '" + list + "'");
            }
            if (n < 1) {
                throw new IllegalArgumentException(flag + " must be at least 1, got " + n);
            }
            if (!counts.isEmpty() && n <= counts.get(counts.size() - 1)) {
                throw new IllegalArgumentException(flag + " must increase, e.g. " + example + "; got '" + list + "'");
            }
            if (n > partitions) {
                throw new IllegalArgumentException(flag + " " + n + " is above --partitions " + partitions
                        + ": a task beyond the partition count sits idle; add partitions or drop it");
            }
            counts.add(n);
        }
        return counts;
    }
}
