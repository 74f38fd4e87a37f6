package dev.cabinet.customer;

import java.time.LocalDate;
import java.time.format.DateTimeParseException;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.ws.rs.BeanParam;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import org.eclipse.microprofile.openapi.annotations.Operation;

import dev.cabinet.auth.Caller;
import dev.cabinet.customer.CustomerDecisions.PlaceOrder;
import dev.cabinet.customer.CustomerDecisions.RegisterCustomer;
import dev.cabinet.decision.Decision;
import dev.cabinet.eventlog.CommandIds;
import dev.cabinet.eventlog.OutcomeUnknownException;
import dev.cabinet.eventlog.SendGate;
import dev.cabinet.http.CommandAnswers;
import dev.cabinet.http.Deadline;
import dev.cabinet.http.InstantParameters;
import dev.cabinet.http.Problems;
import dev.cabinet.table.query.Page;
import dev.cabinet.http.PageParameters;
import dev.cabinet.table.query.PageRequests;
import dev.cabinet.shared.Ids;
import dev.cabinet.shared.Timestamps;
import dev.cabinet.table.OrderIdReservations;
import dev.cabinet.table.OrderIdReservations.Placement;
import dev.cabinet.table.OrderIdReservations.Reserving;
import io.quarkus.security.Authenticated;
import io.smallrye.mutiny.Uni;

/**
 * A customer's cabinet: the profile and the orders (pattern 14). Any signed-in user may register customers and place
 * orders (Cabinet's customers are a back office's records, not its users); reads need no token.
 */
@Deadline
@Path("/customers/{id}")
@Produces(MediaType.APPLICATION_JSON)
public class CustomerResource {

    private final CommandAnswers answers;
    private final Caller caller;
    private final CustomerQueries customers;
    private final PageRequests pages;
    private final OrderIdReservations reservations;
    private final CommandIds ids;

    CustomerResource(CommandAnswers answers, Caller caller, CustomerQueries customers, PageRequests pages,
            OrderIdReservations reservations, CommandIds ids) {
        this.answers = answers;
        this.reservations = reservations;
        this.ids = ids;
        this.caller = caller;
        this.customers = customers;
        this.pages = pages;
    }

    @Operation(operationId = "registerCustomer",
            description = "Registers a customer, or replaces its "
            + "`name` and `email`.")
    @PUT
    @Authenticated
    @Consumes(MediaType.APPLICATION_JSON)
    public Uni<Response> register(@PathParam("id") String id, @Valid @NotNull CustomerRequest body) {
        Ids.require("id", id);
        return answers.accepted(CustomerDecisions.register(new RegisterCustomer(id, body)), caller.id(), id,
                "/customers/" + id);
    }

    /** The profile (GetItem), or with {@code include=orders} the profile and the newest orders in one Query. */
    @GET
    @Operation(description = "A customer; `include=orders` adds its newest orders from the same Query.")
    public Uni<CustomerView> getCustomer(@PathParam("id") String id, @QueryParam("include") String include,
            @QueryParam("limit") String limit) {
        Ids.require("id", id);
        if (include != null && !"orders".equals(include)) {
            throw Problems.badRequest("include", "must be 'orders'");
        }
        return (include == null ? customers.findCustomer(id)
                : customers.findCustomerWithOrders(id, pages.limit(limit)))
                .map(customer -> customer.orElseThrow(() -> Problems.notFound("customer", id)));
    }

    /** The customer's orders by date, oldest first (or {@code order=desc}); {@code from} and {@code to} are inclusive. */
    @GET
    @Path("orders")
    @Operation(description = "The customer's orders by date, oldest first (`order=desc` for newest), optionally "
            + "from and to dates, inclusive.")
    public Uni<Page<OrderView>> listOrders(@PathParam("id") String id, @QueryParam("from") String from,
            @QueryParam("to") String to, @QueryParam("order") String order, @BeanParam PageParameters page) {
        Ids.require("id", id);
        String fromDate = date("from", from, false);
        String toDate = date("to", to, false);
        if (fromDate != null && toDate != null && fromDate.compareTo(toDate) > 0) {
            throw Problems.badRequest("to", "must not be before from");
        }
        if (order != null && !order.equals("asc") && !order.equals("desc")) {
            throw Problems.badRequest("order", "must be 'asc' (oldest first, the default) or 'desc'");
        }
        return customers.listOrders(id, fromDate, toDate, "desc".equals(order), pages.of(page.limit(), page.cursor()));
    }

    @POST
    @Path("orders")
    @Authenticated
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(description = "Places an order (`total` as a decimal string, optional `orderId` and `placedAt`); 409 "
            + "if another placement has the order id, also one not projected yet; the same placement again (customer, "
            + "`placedAt` and total) is 202.")
    public Uni<Response> placeOrder(@PathParam("id") String id, @Valid @NotNull NewOrderRequest body) {
        Ids.require("id", id);
        String actor = caller.id();
        String orderId = body.orderId() == null ? answers.newId() : body.orderId();
        String placedAt = body.placedAt() == null ? Timestamps.format(answers.now())
                : InstantParameters.fixedWidth("placedAt", body.placedAt());
        SendGate gate = ids.gate();   // taken here, in the request's scope: the chain goes on on the SDK's threads
        return Uni.combine().all().unis(customers.findCustomer(id), customers.findOrder(orderId)).asTuple()
                .map(read -> CustomerDecisions.placeOrder(new PlaceOrder(id, orderId, placedAt, body.total()),
                        read.getItem1().orElse(null), read.getItem2().orElse(null)))
                .chain(decision -> decision instanceof Decision.Accept<?>
                        ? reserved(new Placement(orderId, id, placedAt, body.total()), gate,
                                () -> answers.accepted(decision, actor, orderId, "/orders/" + orderId))
                        : answers.accepted(decision, actor, orderId, "/orders/" + orderId));
    }

    /**
     * Appends an accepted placement once its order id is reserved: GSI1, which the decision read, knows only projected
     * orders, so two placements of one id within the projection's lag would both pass it (an id made here is reserved
     * too: a client may send it back as its own before the order is projected). The reservation this request made is
     * freed when the event certainly did not reach the log (refused before the send, or the deadline closed the gate
     * before it), once the reservation's own call has ended, so that the release cannot land before it; it is kept
     * when the outcome is unknown.
     */
    private Uni<Response> reserved(Placement placement, SendGate gate, Supplier<Uni<Response>> append) {
        Reserving reserving = Reserving.of(placement);
        CompletableFuture<Boolean> reservation = reservations.reserve(reserving).subscribeAsCompletionStage();
        return Uni.createFrom().completionStage(reservation::copy)
                .onFailure().call(e -> reservations.release(reserving))   // it may have been made all the same
                .chain(taken -> {
                    if (!taken) {
                        return Uni.createFrom().failure(Problems.conflict("order " + placement.orderId()
                                + " already exists, or is being placed"));
                    }
                    return append.get().onFailure(e -> !(e instanceof OutcomeUnknownException))
                            .call(e -> reservations.release(reserving));
                })
                .onCancellation().invoke(() -> {
                    // The deadline closed the gate before it gave up: if no event went out, the id is free again.
                    if (gate.close().isEmpty()) {
                        reservation.whenComplete((taken, failure) -> reservations.release(reserving).subscribe()
                                .with(ignored -> { }));
                    }
                });
    }

    /** A date parameter, checked to be a real date like 2026-06-01. */
    static String date(String field, String value, boolean required) {
        if (value == null) {
            if (required) {
                throw Problems.badRequest(field, "is required (a date like 2026-06-01)");
            }
            return null;
        }
        try {
            LocalDate date = LocalDate.parse(value);
            if (date.getYear() < 0 || date.getYear() > 9999) {
                throw new DateTimeParseException("out of range", value, 0);
            }
            return date.toString();
        } catch (DateTimeParseException e) {
            throw Problems.badRequest(field, "must be a date like 2026-06-01");
        }
    }
}
