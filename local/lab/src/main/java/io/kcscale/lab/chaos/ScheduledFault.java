package io.kcscale.lab.chaos;

import java.util.List;

/**
 * One fault of a schedule.
 *
 * @param atSeconds  when it is due, from the start of the fault window; a fault starts no earlier, and
 *                   no earlier than the previous fault's recovery
 * @param target     what it hits: a component ({@code connect-1}, {@code elasticsearch}, {@code kafka}),
 *                   the sink connector for a scale, the topic for malformed records
 * @param partitions for {@link Fault#MALFORMED}: one malformed record goes to each (a partition may repeat);
 *                   empty otherwise
 */
public record ScheduledFault(double atSeconds, Fault fault, String target, List<Integer> partitions) {

    public ScheduledFault {
        partitions = List.copyOf(partitions);
    }
}
