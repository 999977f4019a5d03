package io.kcscale.scaler.loop;

import io.kcscale.scaler.act.WriteFence;
import io.kcscale.scaler.autoscale.Lease;
import io.kcscale.scaler.autoscale.LeaseTerm;
import io.kcscale.scaler.ports.Leadership;
import io.kcscale.scaler.ports.PolicyStore;
import java.time.Duration;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Which replica autoscales, and the fence on its writes. A group of the replicas nominates one (see
 * {@code kafka.KafkaLeadership}); the state topic decides. The nominee claims the epoch above the lease in force once
 * that lease has lapsed as this replica saw it (no claim or renewal of it read for its stated duration) or was
 * released; of two claims the first in the topic wins. So leadership needs nothing of the group's history: a group
 * Kafka deleted, or one whose generations started again, still gives a leader.
 *
 * <p>The holder renews every {@link #RENEW_EVERY}. It holds its lease, on its own monotonic clock, for the stated
 * duration from the moment it sent the latest renewal that counted, and its fence lets a write to Connect or
 * Kubernetes go only while the lease holds longer than that write may take. Any other replica waits that duration
 * from a later moment (when it read the renewal), so a holder that stopped renewing (frozen, cut off from Kafka,
 * dead) has let go before another claims. Both need clocks that run at the same rate, not that agree.
 */
public final class LeaderLease implements Leadership, AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(LeaderLease.class);
    /** Long enough for several renewals on a busy machine, short enough to lead again soon after a holder's crash. */
    public static final Duration DURATION = Duration.ofSeconds(12);
    /** Six renewals a term: a few slow or failed writes to Kafka do not let the lease lapse. */
    static final Duration RENEW_EVERY = DURATION.dividedBy(6);
    /** How often this replica looks at the lease in force: how late it may notice a renewal, or a lapse. */
    private static final Duration TICK = Duration.ofMillis(250);

    /** The lease this replica holds, until when (its monotonic clock), and when it last renewed it. */
    private record Held(Lease lease, long untilNanos, long renewedAtNanos) {}

    private final String instanceId;
    private final BooleanSupplier nominated;
    private final PolicyStore store;
    private final long durationNanos;
    private final LongSupplier nanos;
    private final ScheduledExecutorService ticks = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "kcscale-lease");
        t.setDaemon(true);
        return t;
    });

    private volatile Held held;
    /** The lease records counted when this replica last looked, and when it saw that number change; guarded by this. */
    private long seenRecords = -1;

    private long seenAtNanos;
    /** Guards what the fence and {@link #close} share, apart from {@link #tick}'s writes to Kafka, which may be slow. */
    private final Object writes = new Object();
    /** The latest moment a write this fence let through may still be on its way, if any went; guarded by {@link #writes}. */
    private Long writesUntilNanos;
    /** Guarded by {@link #writes}. */
    private boolean closed;

    /**
     * @param nominated whether the group nominates this replica now
     * @param nanos     this replica's monotonic clock, in nanoseconds
     */
    public LeaderLease(
            String instanceId, BooleanSupplier nominated, PolicyStore store, Duration duration, LongSupplier nanos) {
        this.instanceId = instanceId;
        this.nominated = nominated;
        this.store = store;
        this.durationNanos = duration.toNanos();
        this.nanos = nanos;
    }

    /** Looks at the lease every {@link #TICK}, claiming, renewing or letting go as {@link #tick} says. */
    public void start() {
        ticks.scheduleWithFixedDelay(
                () -> {
                    try {
                        tick();
                    } catch (RuntimeException e) {
                        LOG.warn("the lease of {} could not be kept: {}", instanceId, e.getMessage());
                    }
                },
                0,
                TICK.toMillis(),
                TimeUnit.MILLISECONDS);
    }

    /**
     * One look (the schedule's; tests call it): notes when the lease in force last changed; the holder renews when due
     * and lets go when superseded or no longer nominated; a nominee claims once the lease in force has lapsed or was
     * released.
     */
    public synchronized void tick() {
        long now = nanos.getAsLong();
        Optional<LeaseTerm> term = store.leaseTerm();
        long records = term.map(LeaseTerm::records).orElse(0L);
        if (records != seenRecords) {
            seenRecords = records;
            seenAtNanos = now;
        }
        Held h = held;
        boolean nominee = nominated.getAsBoolean();
        if (h != null) {
            if (!nominee || !store.leader().equals(Optional.of(h.lease()))) {
                // not released: a scale of this replica may still be on its way; the lease lapses by its time
                LOG.info(
                        "{} lets go of its lease (epoch {}): {}",
                        instanceId,
                        h.lease().epoch(),
                        nominee ? "another replica's claim superseded it" : "the group no longer nominates it");
                held = null;
            } else if (now - h.renewedAtNanos() >= RENEW_EVERY.toNanos()) {
                renew(h, now);
            }
            return;
        }
        if (!nominee) {
            return;
        }
        if (term.isPresent()
                && !term.get().released()
                && now - seenAtNanos < TimeUnit.MILLISECONDS.toNanos(term.get().durationMillis())) {
            return; // the lease in force may still hold for its holder
        }
        Lease next = new Lease(instanceId, term.map(t -> t.lease().epoch()).orElse(0L) + 1);
        if (store.claim(next, TimeUnit.NANOSECONDS.toMillis(durationNanos))) {
            held = new Held(next, now + durationNanos, now);
            LOG.info(
                    "{} leads the autoscalers (epoch {}{})",
                    instanceId,
                    next.epoch(),
                    term.map(t -> t.released()
                                    ? ", after " + t.lease().leaderId() + " released its lease"
                                    : ", after the lease of " + t.lease().leaderId() + " lapsed")
                            .orElse(""));
        }
    }

    /** Renews from {@code now} (before the write is sent, so the lease ends no later than the holder's own view of it). */
    private void renew(Held h, long now) {
        try {
            if (store.renew(h.lease(), TimeUnit.NANOSECONDS.toMillis(durationNanos))) {
                held = new Held(h.lease(), now + durationNanos, now);
            } else {
                LOG.info(
                        "{}'s lease (epoch {}) was superseded",
                        instanceId,
                        h.lease().epoch());
                held = null;
            }
        } catch (RuntimeException e) {
            // it lapses at its time unless a later renewal counts
            LOG.warn(
                    "{} could not renew its lease (epoch {}), which holds {} s more: {}",
                    instanceId,
                    h.lease().epoch(),
                    seconds(h.untilNanos() - nanos.getAsLong()),
                    e.getMessage());
        }
    }

    @Override
    public String instanceId() {
        return instanceId;
    }

    /** The lease this replica holds: the one in force, its own, and not lapsed on its clock. */
    @Override
    public Optional<Lease> lease() {
        Held h = held;
        return h != null && nanos.getAsLong() < h.untilNanos() && store.leader().equals(Optional.of(h.lease()))
                ? Optional.of(h.lease())
                : Optional.empty();
    }

    /** Lets a write made under {@code lease} go only while this replica holds it longer than the write may take. */
    @Override
    public WriteFence fence(Lease lease) {
        return (what, timeout) -> {
            synchronized (writes) {
                Held h = held;
                long now = nanos.getAsLong();
                if (closed
                        || h == null
                        || !h.lease().equals(lease)
                        || !store.leader().equals(Optional.of(lease))) {
                    throw new WriteFence.Lapsed(what + " not sent: " + instanceId
                            + " no longer leads (its lease, epoch " + lease.epoch() + ", is not the one in force)");
                }
                long left = h.untilNanos() - now;
                if (left <= 0) {
                    throw new WriteFence.Lapsed(what + " not sent: the lease of " + instanceId + " (epoch "
                            + lease.epoch() + ") lapsed " + seconds(-left) + " s ago, unrenewed");
                }
                if (left <= timeout.toNanos()) {
                    throw new WriteFence.Lapsed(what + " not sent: the lease of " + instanceId + " (epoch "
                            + lease.epoch() + ") holds " + seconds(left) + " s more, not the "
                            + seconds(timeout.toNanos()) + " s the write may take");
                }
                long until = now + timeout.toNanos();
                writesUntilNanos = writesUntilNanos == null ? until : Math.max(writesUntilNanos, until);
            }
        };
    }

    private static String seconds(long nanos) {
        return String.format(Locale.ROOT, "%.1f", nanos / 1e9);
    }

    /**
     * Stops looking at the lease; a lease this replica holds is released (another replica may claim at once) once
     * every write its fence let through has had its time, or else left to lapse.
     */
    @Override
    public void close() {
        ticks.shutdownNow();
        try {
            // a tick's write to Kafka is interrupted; past this, a claim it made just lapses
            ticks.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        Held h;
        long waitNanos;
        synchronized (writes) {
            closed = true;
            h = held;
            held = null;
            waitNanos = writesUntilNanos == null ? 0 : writesUntilNanos - nanos.getAsLong();
        }
        if (h == null) {
            return;
        }
        try {
            if (waitNanos > 0) {
                // a time to let pass, not a state to wait for: the write's own timeout bounds it
                TimeUnit.NANOSECONDS.sleep(waitNanos);
            }
            if (store.release(h.lease())) {
                LOG.info(
                        "{} released its lease (epoch {})",
                        instanceId,
                        h.lease().epoch());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            LOG.warn("{} could not release its lease, which lapses in its time: {}", instanceId, e.getMessage());
        }
    }
}
