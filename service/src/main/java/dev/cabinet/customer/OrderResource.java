package dev.cabinet.customer;

import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.ws.rs.BeanParam;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PATCH;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import org.eclipse.microprofile.openapi.annotations.Operation;

import dev.cabinet.auth.Caller;
import dev.cabinet.customer.CustomerDecisions.ChangeOrderStatus;
import dev.cabinet.http.CommandAnswers;
import dev.cabinet.http.Deadline;
import dev.cabinet.http.Problems;
import dev.cabinet.table.query.Page;
import dev.cabinet.http.PageParameters;
import dev.cabinet.table.query.PageRequests;
import dev.cabinet.shared.Ids;
import io.quarkus.security.Authenticated;
import io.smallrye.mutiny.Uni;

/** Orders by id (pattern 15, through the overloaded GSI1) and by date (pattern 16, the sharded GSI2, merged). */
@Deadline
@Path("/orders")
@Produces(MediaType.APPLICATION_JSON)
public class OrderResource {

    private final CommandAnswers answers;
    private final Caller caller;
    private final CustomerQueries customers;
    private final PageRequests pages;

    OrderResource(CommandAnswers answers, Caller caller, CustomerQueries customers, PageRequests pages) {
        this.answers = answers;
        this.caller = caller;
        this.customers = customers;
        this.pages = pages;
    }

    /** All orders placed on one date, in the order they were placed. */
    @GET
    @Operation(description = "Every order placed on `date` (YYYY-MM-DD), in placing order.")
    public Uni<Page<OrderView>> listOrdersOn(@QueryParam("date") String date, @BeanParam PageParameters page) {
        return customers.listOrdersOn(CustomerResource.date("date", date, true), pages.of(page.limit(), page.cursor()));
    }

    @GET
    @Path("{id}")
    @Operation(description = "An order by its id.")
    public Uni<OrderView> getOrder(@PathParam("id") String id) {
        Ids.require("id", id);
        return existing(id);
    }

    @PATCH
    @Path("{id}")
    @Authenticated
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(description = "Changes an order's `status` as its lifecycle allows (409 otherwise): `placed` to "
            + "`paid`, `shipped` or `cancelled`; `paid` to `shipped` or `cancelled`; `shipped` to `delivered`.")
    public Uni<Response> changeStatus(@PathParam("id") String id, @Valid @NotNull OrderChangeRequest body) {
        Ids.require("id", id);
        String actor = caller.id();
        return customers.findOrder(id)
                .map(order -> CustomerDecisions.changeStatus(new ChangeOrderStatus(id, body.status()),
                        order.orElse(null)))
                .chain(decision -> answers.accepted(decision, actor, id, "/orders/" + id));
    }

    private Uni<OrderView> existing(String id) {
        return customers.findOrder(id).map(order -> order.orElseThrow(() -> Problems.notFound("order", id)));
    }
}
