package dev.sluice.quality.internal.deequ;

import java.util.List;
import java.util.function.Predicate;
import scala.Function1;
import scala.Option;
import scala.collection.JavaConverters;
import scala.collection.Seq;
import scala.collection.immutable.Vector;

/** The few Java → Scala conversions the Deequ calls need. Stateless. */
final class Scala {

    private Scala() {
    }

    static <T> Option<T> none() {
        return Option.empty();
    }

    static <T> Option<T> some(T value) {
        return Option.apply(value);
    }

    @SuppressWarnings("deprecation")
    static <T> Seq<T> seq(List<T> list) {
        return JavaConverters.asScalaBufferConverter(list).asScala().toSeq();
    }

    @SuppressWarnings("deprecation")
    static <T> Vector<T> vector(List<T> list) {
        return JavaConverters.asScalaBufferConverter(list).asScala().toVector();
    }

    static <T> scala.collection.immutable.List<T> nil() {
        return scala.collection.immutable.List$.MODULE$.empty();
    }

    /** A Deequ assertion over a double metric. */
    static Function1<Object, Object> onDouble(Predicate<Double> p) {
        return v -> p.test(((Number) v).doubleValue());
    }

    /** A Deequ assertion over a count. */
    static Function1<Object, Object> onLong(Predicate<Long> p) {
        return v -> p.test(((Number) v).longValue());
    }
}
