"""What SQLAlchemy's inspector (Superset's and other Python BI tools' catalogue) lists in schema bi.

Usage: python3 sqlalchemy_catalog.py <postgresql URL>; prints one JSON object.
"""
import json
import sys

from sqlalchemy import create_engine, inspect

engine = create_engine(sys.argv[1])
inspector = inspect(engine)
print(json.dumps({
    'views': sorted(inspector.get_view_names(schema='bi')),
    'tables': sorted(inspector.get_table_names(schema='bi')),
    'columns': [{'name': c['name'], 'comment': c.get('comment')} for c in inspector.get_columns('deployments', schema='bi')],
    'comment': inspector.get_table_comment('deployments', schema='bi')['text'],
}))
engine.dispose()
