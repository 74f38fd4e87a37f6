package dev.cabinet.metrics;

import java.util.List;

import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.ws.rs.BeanParam;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import org.eclipse.microprofile.openapi.annotations.Operation;

import dev.cabinet.auth.Caller;
import dev.cabinet.http.CommandAnswers;
import dev.cabinet.http.Deadline;
import dev.cabinet.http.InstantParameters;
import dev.cabinet.http.Problems;
import dev.cabinet.metrics.MetricsDecisions.RecordSamples;
import dev.cabinet.metrics.MetricsEvent.Sample;
import dev.cabinet.table.query.Page;
import dev.cabinet.http.PageParameters;
import dev.cabinet.table.query.PageRequests;
import dev.cabinet.table.TableReader;
import dev.cabinet.shared.Ids;
import dev.cabinet.table.KeyPlan;
import io.quarkus.security.Authenticated;
import io.smallrye.mutiny.Uni;

/**
 * A resource's metrics: recording samples (one or a batch, as one event), and reading a time range (pattern 13): every
 * shard queried with {@code sk BETWEEN :from AND :to} in parallel, merged in time order.
 */
@Deadline
@Path("/metrics/{resourceId}")
@Produces(MediaType.APPLICATION_JSON)
public class MetricsResource {

    private final CommandAnswers answers;
    private final Caller caller;
    private final TableReader table;
    private final PageRequests pages;
    private final MetricsConfig config;

    MetricsResource(CommandAnswers answers, Caller caller, TableReader table, PageRequests pages,
            MetricsConfig config) {
        this.answers = answers;
        this.caller = caller;
        this.table = table;
        this.pages = pages;
        this.config = config;
    }

    @Operation(operationId = "recordMetrics",
            description = "Records one sample or an array of up to "
            + "500: `timestamp`, `cpu` and `memory` (percent), `requests`.")
    @POST
    @Authenticated
    @Consumes(MediaType.APPLICATION_JSON)
    public Uni<Response> record(@PathParam("resourceId") String resourceId, @Valid @NotNull SamplesRequest body) {
        Ids.require("resourceId", resourceId);
        String actor = caller.id();
        List<Sample> samples = body.samples().stream()
                .map(s -> new Sample(InstantParameters.fixedWidth("timestamp", s.timestamp()), s.cpu(), s.memory(), s.requests()))
                .toList();
        return answers.accepted(MetricsDecisions.record(new RecordSamples(resourceId, samples)), actor, resourceId,
                "/metrics/" + resourceId);
    }

    /** Samples with {@code from <= timestamp <= to}, oldest first; both ends are ISO-8601 instants and inclusive. */
    @Operation(operationId = "listMetrics",
            description = "The resource's samples between `from` and "
            + "`to`, both inclusive, oldest first.")
    @GET
    public Uni<Page<MetricView>> range(@PathParam("resourceId") String resourceId, @QueryParam("from") String from,
            @QueryParam("to") String to, @BeanParam PageParameters page) {
        Ids.require("resourceId", resourceId);
        String end = InstantParameters.fixedWidth("to", to);
        if (InstantParameters.fixedWidth("from", from).compareTo(end) > 0) {
            throw Problems.badRequest("to", "must not be before from");
        }
        // The range's first millisecond at or after from: past the end (both within one millisecond), nothing is in it.
        String start = InstantParameters.rangeStart("from", from);
        if (start.compareTo(end) > 0) {
            return Uni.createFrom().item(new Page<>(List.of(), null));
        }
        return table.queryMerged(KeyPlan.METRICS_IN_RANGE.shardsInRange(config.shards(), start, end, resourceId),
                pages.of(page.limit(), page.cursor())).map(found -> found.map(MetricView::of));
    }
}
